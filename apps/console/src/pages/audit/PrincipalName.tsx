import { Typography } from 'antd';
import { useT } from '../../i18n';
import type { KeyNames } from './useKeyNames';

/**
 * A principal of the trail by its key's name when the viewer knows it, else by its id. `withId`
 * also writes the id (the drawer: the name for reading, the id for searching the trail).
 */
export function PrincipalName(props: {
  id: string | null | undefined;
  names: KeyNames;
  type?: string;
  withId?: boolean;
}) {
  const t = useT();
  const { id, type } = props;
  if (!id) return <>—</>;
  const name = props.names(id);
  const prefix = type ? `${type}: ` : '';
  if (!name) return <span data-principal-id={id}>{`${prefix}${id}`}</span>;
  return (
    <span data-principal-id={id} title={t('audit.field.keyId', { id })}>
      {`${prefix}${name}`}
      {props.withId && (
        <Typography.Text type="secondary" style={{ marginLeft: 8 }}>
          ({id})
        </Typography.Text>
      )}
    </span>
  );
}
