import { Descriptions, Empty, Space, Table, Tag, Typography } from 'antd';
import type { NotificationChannel, NotificationSettings } from '../../api/notifications';
import { useI18n } from '../../i18n';

/** A secret as the console may show it: the variable's name and whether it is set, never its value. */
function SecretRef({ name, set }: { name: string | null; set: boolean | null }) {
  const { t } = useI18n();
  if (!name) return <Typography.Text type="secondary">—</Typography.Text>;
  return (
    <Space size={4}>
      <Typography.Text code>{name}</Typography.Text>
      <Tag color={set ? 'success' : 'error'}>
        {set ? t('notifications.secretSet') : t('notifications.secretMissing')}
      </Tag>
    </Space>
  );
}

const minutes = (ms: number) => `${Math.round(ms / 60_000)} min`;

/** The tenant's channels, routes, reminders and Feishu deciders, as its file sets them (read-only). */
export function ChannelsPanel({ settings }: { settings: NotificationSettings }) {
  const { t } = useI18n();
  if (!settings.channels.length) return <Empty description={t('notifications.noChannels')} />;
  return (
    <Space orientation="vertical" size="large" style={{ width: '100%' }}>
      <Table<NotificationChannel>
        rowKey="name"
        size="middle"
        pagination={false}
        dataSource={[...settings.channels]}
        data-testid="channels-table"
        columns={[
          {
            title: t('notifications.channel'),
            dataIndex: 'name',
            render: (v: string) => <Typography.Text strong>{v}</Typography.Text>,
          },
          {
            title: t('notifications.type'),
            dataIndex: 'type',
            render: (v: string) => <Tag>{t(`notifications.type.${v}` as 'notifications.type.webhook')}</Tag>,
          },
          {
            title: 'URL',
            dataIndex: 'url',
            render: (v: string) => <Typography.Text code>{v}</Typography.Text>,
          },
          {
            title: t('notifications.token'),
            key: 'token',
            render: (_: unknown, c) => <SecretRef name={c.tokenEnv} set={c.tokenSet} />,
          },
          {
            title: t('notifications.secret'),
            key: 'secret',
            render: (_: unknown, c) => <SecretRef name={c.secretEnv} set={c.secretSet} />,
          },
        ]}
      />
      <Descriptions bordered size="small" column={1} data-testid="routing">
        {settings.routes.map((r, i) => (
          <Descriptions.Item key={i} label={`${t('notifications.route')} ${i + 1}`}>
            <Space wrap>
              {r.risk?.map((x) => (
                <Tag key={x} color="red">
                  {x}
                </Tag>
              ))}
              {r.tools?.map((x) => (
                <Tag key={x}>{x}</Tag>
              ))}
              {r.dataDomains?.map((x) => (
                <Tag key={x} color="blue">
                  {x}
                </Tag>
              ))}
              {!r.risk && !r.tools && !r.dataDomains && <Tag>{t('notifications.allApprovals')}</Tag>}→
              {r.channels.map((c) => (
                <Tag key={c} color="geekblue">
                  {c}
                </Tag>
              ))}
            </Space>
          </Descriptions.Item>
        ))}
        <Descriptions.Item label={t('notifications.reminders')}>
          {settings.reminders?.beforeExpiryMs.map(minutes).join(', ') ?? '—'}
        </Descriptions.Item>
        <Descriptions.Item label={t('notifications.escalation')}>
          {settings.escalation
            ? `${settings.escalation.channel} · ${minutes(settings.escalation.beforeExpiryMs)}`
            : '—'}
        </Descriptions.Item>
        <Descriptions.Item label={t('notifications.feishuDeciders')}>
          {settings.feishu ? (
            <Space orientation="vertical" size={4}>
              <SecretRef name={settings.feishu.encryptKeyEnv} set={settings.feishu.encryptKeySet} />
              {settings.feishu.users.map((u) => (
                <span key={u.feishuId}>
                  <Typography.Text code>{u.feishuId}</Typography.Text> → {u.name ?? u.subject} ({u.subject},{' '}
                  {u.role})
                </span>
              ))}
            </Space>
          ) : (
            '—'
          )}
        </Descriptions.Item>
      </Descriptions>
    </Space>
  );
}
