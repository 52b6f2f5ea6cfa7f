import { Alert, Button } from 'antd';
import { ApiError } from '../api/client';
import { useT } from '../i18n';

/** An error as the envelope told it: the message, the suggested action and the code. */
export function ErrorAlert({ error, onRetry }: { error: unknown; onRetry?: () => void }) {
  const t = useT();
  if (!error) return null;
  const api = error instanceof ApiError ? error : null;
  const message = api?.message ?? (error instanceof Error ? error.message : String(error));
  const lines = [
    api?.suggestedAction ? t('common.suggestedAction', { action: api.suggestedAction }) : null,
    api?.code ? t('common.errorCode', { code: api.code }) : null,
  ].filter(Boolean);
  return (
    <Alert
      type="error"
      showIcon
      data-testid="error-alert"
      title={message || t('common.requestFailed')}
      description={lines.length ? lines.map((l) => <div key={l}>{l}</div>) : undefined}
      action={
        onRetry ? (
          <Button size="small" onClick={onRetry}>
            {t('common.retry')}
          </Button>
        ) : undefined
      }
      style={{ marginBottom: 16 }}
    />
  );
}
