import { Alert, Button, Modal, Typography } from 'antd';
import type { CreatedKey } from '../../api/types';
import { useT } from '../../i18n';

/** The new key's secret, shown this once, with a copy button. */
export function SecretModal({ created, onClose }: { created: CreatedKey | null; onClose: () => void }) {
  const t = useT();
  return (
    <Modal
      open={created !== null}
      title={t('keys.secretTitle')}
      onCancel={onClose}
      mask={{ closable: false }}
      footer={
        <Button type="primary" onClick={onClose}>
          {t('common.close')}
        </Button>
      }
    >
      <Alert type="warning" showIcon title={t('keys.secretHint')} style={{ marginBottom: 16 }} />
      {created && (
        <Typography.Paragraph
          code
          copyable={{ text: created.key }}
          data-testid="new-key-secret"
          style={{ fontSize: 14, wordBreak: 'break-all' }}
        >
          {created.key}
        </Typography.Paragraph>
      )}
    </Modal>
  );
}
