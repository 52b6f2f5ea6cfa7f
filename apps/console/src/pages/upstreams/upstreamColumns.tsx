import { Button, Tag, Typography, type TableColumnsType } from 'antd';
import type { Upstream } from '../../api/types';
import { formatTime } from '../../components/format';
import type { Translate } from '../../i18n';

/** The columns of the server list; "open" shows the server's tools below the list. */
export function upstreamColumns(opts: {
  t: Translate;
  language: string;
  onOpen: (name: string) => void;
}): TableColumnsType<Upstream> {
  const { t, language } = opts;
  return [
    {
      title: t('upstreams.name'),
      dataIndex: 'name',
      render: (v: string) => <Typography.Text code>{v}</Typography.Text>,
    },
    {
      title: t('upstreams.kind'),
      dataIndex: 'kind',
      render: (v: Upstream['kind']) => <Tag>{t(`upstreams.kind.${v}`)}</Tag>,
    },
    {
      title: t('upstreams.url'),
      dataIndex: 'url',
      render: (v: string) => (
        <Typography.Text ellipsis={{ tooltip: v }} style={{ maxWidth: 320 }}>
          {v}
        </Typography.Text>
      ),
    },
    {
      title: t('upstreams.toolsImported'),
      render: (_, u) => u.tools.active + u.tools.quarantined + u.tools.removed,
    },
    {
      title: t('upstreams.quarantinedCount'),
      render: (_, u) =>
        u.tools.quarantined > 0 ? (
          <Tag color="red" data-testid="quarantined-count">
            {u.tools.quarantined}
          </Tag>
        ) : (
          0
        ),
    },
    {
      title: t('upstreams.timeoutMs'),
      dataIndex: 'timeoutMs',
      render: (v: number) => t('common.msValue', { value: v }),
    },
    // The API keeps no separate refresh time: a server's row changes when a refresh finds news.
    {
      title: t('upstreams.updatedAt'),
      dataIndex: 'updatedAt',
      render: (v: string) => formatTime(v, language),
    },
    {
      title: t('common.actions'),
      render: (_, u) => (
        <Button size="small" onClick={() => opts.onOpen(u.name)} data-testid="open-upstream">
          {t('upstreams.open')}
        </Button>
      ),
    },
  ];
}
