import { Space, Tag, Typography } from 'antd';
import type { BindingView } from '../../api/types';
import { formatTime } from '../../components/format';
import { useI18n } from '../../i18n';

/** The version the editor was read at, who saved it and when, and whether there are unsaved edits. */
export function EditorStatus({ base, dirty }: { base: BindingView; dirty: boolean }) {
  const { t, language } = useI18n();
  return (
    <Space wrap style={{ marginBottom: 16 }}>
      <Tag color="blue" data-testid="binding-version">
        {t('bindings.version', { version: base.version })}
      </Tag>
      <Typography.Text type="secondary">
        {t('bindings.updated', { by: base.updatedBy, at: formatTime(base.updatedAt, language) })}
      </Typography.Text>
      {base.description && <Typography.Text>{base.description}</Typography.Text>}
      {dirty && <Tag color="warning">{t('bindings.unsaved')}</Tag>}
    </Space>
  );
}
