import { Button, Result } from 'antd';
import { useNavigate } from 'react-router-dom';
import { usePrincipal } from '../auth/AuthContext';
import { useT } from '../i18n';

/** What a role sees on a page it may not open. */
export function Forbidden() {
  const t = useT();
  const me = usePrincipal();
  const navigate = useNavigate();
  return (
    <Result
      status="403"
      title={t('common.forbiddenTitle')}
      subTitle={
        <span data-testid="forbidden">{t('common.forbiddenText', { role: t(`role.${me.role}`) })}</span>
      }
      extra={
        <Button type="primary" onClick={() => navigate('/')}>
          {t('common.backHome')}
        </Button>
      }
    />
  );
}
