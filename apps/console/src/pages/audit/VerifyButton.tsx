import { SafetyCertificateOutlined } from '@ant-design/icons';
import { Button } from 'antd';
import { useMutation } from '@tanstack/react-query';
import { useApiClient } from '../../api/ApiClientContext';
import { verifyAudit } from '../../api/audit';
import type { AuditFilter, Verification } from '../../api/types';
import { useT } from '../../i18n';

/** Verifies the hash chain over the filter's tenant and time range (a fresh answer every click). */
export function VerifyButton(props: {
  filter: AuditFilter;
  onStart: () => void;
  onVerdict: (verdict: Verification) => void;
  onError: (error: unknown) => void;
}) {
  const t = useT();
  const api = useApiClient();
  const { tenantId, from, to } = props.filter;
  const verify = useMutation({
    mutationFn: () => verifyAudit(api, { tenantId, from, to }),
    onSuccess: props.onVerdict,
    onError: props.onError,
  });
  return (
    <Button
      type="primary"
      icon={<SafetyCertificateOutlined />}
      loading={verify.isPending}
      onClick={() => {
        props.onStart();
        verify.mutate();
      }}
      data-testid="verify"
    >
      {t('audit.verify')}
    </Button>
  );
}
