import { Space, Tag, Typography } from 'antd';
import type { BindingDiff } from '../../api/types';
import { useT } from '../../i18n';
import { isEmptyDiff } from '@toolgate/contract/rules';
import { describeEntry } from './binding-rules';

/** Added, removed and changed tools of a binding change. */
export function DiffView({ diff }: { diff: BindingDiff }) {
  const t = useT();
  if (isEmptyDiff(diff)) return <Typography.Text type="secondary">{t('bindings.noChanges')}</Typography.Text>;
  return (
    <Space orientation="vertical" size={4} data-testid="binding-diff">
      {diff.added.length > 0 && (
        <div>
          <Typography.Text strong>{t('bindings.added')}：</Typography.Text>
          {diff.added.map((n) => (
            <Tag key={n} color="success" data-diff="added">
              + {n}
            </Tag>
          ))}
        </div>
      )}
      {diff.removed.length > 0 && (
        <div>
          <Typography.Text strong>{t('bindings.removed')}：</Typography.Text>
          {diff.removed.map((n) => (
            <Tag key={n} color="error" data-diff="removed">
              − {n}
            </Tag>
          ))}
        </div>
      )}
      {diff.changed.map((c) => (
        <div key={c.name} data-diff="changed">
          <Typography.Text strong>{t('bindings.changed')}：</Typography.Text>
          <Typography.Text code>{c.name}</Typography.Text>{' '}
          <Typography.Text delete>{describeEntry(c.from)}</Typography.Text>
          {' → '}
          <Typography.Text mark>{describeEntry(c.to)}</Typography.Text>
        </div>
      ))}
    </Space>
  );
}
