import { AutoComplete } from 'antd';
import { useT } from '../i18n';

/** A filter's tenant field: pick one of `tenants` or type an id; empty means all tenants. */
export function TenantPicker(props: {
  tenants: readonly string[];
  value?: string;
  onChange?: (value: string) => void;
}) {
  const t = useT();
  return (
    <AutoComplete
      allowClear
      style={{ width: 140 }}
      value={props.value}
      onChange={props.onChange}
      options={props.tenants.map((id) => ({ value: id }))}
      placeholder={t('common.all')}
    />
  );
}
