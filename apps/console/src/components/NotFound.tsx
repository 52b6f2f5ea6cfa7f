import { Button, Result } from 'antd';
import { useNavigate } from 'react-router-dom';
import { useT } from '../i18n';

export function NotFound() {
  const t = useT();
  const navigate = useNavigate();
  return (
    <Result
      status="404"
      title={t('common.notFound')}
      extra={
        <Button type="primary" onClick={() => navigate('/')}>
          {t('common.backHome')}
        </Button>
      }
    />
  );
}
