import { Button, Result } from 'antd';
import { useI18n } from '../i18n';

/**
 * Where the gateway sends a person the identity provider knows but the configuration gives no
 * role: a clear answer and what to do, instead of an empty console.
 */
export function NoAccessPage() {
  const { t } = useI18n();
  return (
    <div style={{ minHeight: '100vh', display: 'flex', alignItems: 'center', justifyContent: 'center' }}>
      <Result
        status="403"
        title={t('noAccess.title')}
        subTitle={t('noAccess.hint')}
        data-testid="no-access"
        extra={
          <Button type="primary" href="/console/">
            {t('noAccess.back')}
          </Button>
        }
      />
    </div>
  );
}
