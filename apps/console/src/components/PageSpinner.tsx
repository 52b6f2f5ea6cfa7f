import { Spin } from 'antd';
import { useT } from '../i18n';

/** The loading state of a whole page or panel. */
export function PageSpinner() {
  const t = useT();
  return (
    <div style={{ padding: 48, textAlign: 'center' }}>
      <Spin description={t('common.loading')} />
    </div>
  );
}
