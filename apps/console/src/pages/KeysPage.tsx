import { PlusOutlined } from '@ant-design/icons';
import { App, Button, Card, Popconfirm, Table, Tag, Typography } from 'antd';
import { useState } from 'react';
import { useRevokeKey } from '../api/mutations';
import { useKeysQuery } from '../api/queries';
import type { ApiKeyView, CreatedKey } from '../api/types';
import { ErrorAlert } from '../components/ErrorAlert';
import { formatTime } from '../components/format';
import { useI18n } from '../i18n';
import { CreateKeyModal } from './keys/CreateKeyModal';
import { SecretModal } from './keys/SecretModal';

/** API keys: list (never the secret), create (secret shown once), revoke. */
export default function KeysPage() {
  const { t, language } = useI18n();
  const { message } = App.useApp();
  const keys = useKeysQuery();
  const revokeKey = useRevokeKey();
  const [creating, setCreating] = useState(false);
  const [created, setCreated] = useState<CreatedKey | null>(null);
  const [actionError, setActionError] = useState<unknown>(null);

  const revoke = async (key: ApiKeyView) => {
    setActionError(null);
    try {
      await revokeKey.mutateAsync(key.id);
      message.success(t('keys.revokedOk'));
    } catch (err) {
      setActionError(err);
    }
  };

  return (
    <Card
      title={t('keys.title')}
      data-testid="keys-page"
      extra={
        <Button
          type="primary"
          icon={<PlusOutlined />}
          onClick={() => setCreating(true)}
          data-testid="create-key"
        >
          {t('keys.create')}
        </Button>
      }
    >
      <ErrorAlert error={keys.error} onRetry={() => void keys.refetch()} />
      <ErrorAlert error={actionError} />
      <Table<ApiKeyView>
        rowKey="id"
        size="middle"
        loading={keys.isLoading}
        dataSource={keys.data ? [...keys.data] : []}
        pagination={{
          pageSize: 20,
          hideOnSinglePage: true,
          showTotal: (total) => t('common.total', { total }),
        }}
        columns={[
          { title: t('keys.name'), dataIndex: 'name' },
          {
            title: t('keys.role'),
            dataIndex: 'role',
            render: (r: ApiKeyView['role']) => <Tag>{t(`role.${r}`)}</Tag>,
          },
          { title: t('keys.tenant'), dataIndex: 'tenantId', render: (v: string | null) => v ?? '—' },
          {
            title: t('keys.agentTypes'),
            dataIndex: 'agentTypes',
            render: (v: string[] | null) => (v?.length ? v.map((a) => <Tag key={a}>{a}</Tag>) : '—'),
          },
          {
            title: t('keys.prefix'),
            dataIndex: 'prefix',
            render: (p: string) => <Typography.Text code>{p}…</Typography.Text>,
          },
          {
            title: t('keys.createdAt'),
            dataIndex: 'createdAt',
            render: (v: string) => formatTime(v, language),
          },
          { title: t('keys.createdBy'), dataIndex: 'createdBy', render: (v: string | null) => v ?? '—' },
          {
            title: t('keys.state'),
            render: (_, k) =>
              k.revokedAt ? (
                <Tag color="default">{t('keys.revoked', { at: formatTime(k.revokedAt, language) })}</Tag>
              ) : (
                <Tag color="success">{t('keys.active')}</Tag>
              ),
          },
          {
            title: t('common.actions'),
            render: (_, k) =>
              !k.revokedAt && (
                <Popconfirm
                  title={t('keys.revokeConfirm', { name: k.name })}
                  onConfirm={() => revoke(k)}
                  okButtonProps={{ danger: true }}
                >
                  <Button danger size="small">
                    {t('keys.revoke')}
                  </Button>
                </Popconfirm>
              ),
          },
        ]}
      />
      <CreateKeyModal
        open={creating}
        onClose={() => setCreating(false)}
        onCreated={(key) => {
          setCreating(false);
          setCreated(key);
        }}
      />
      <SecretModal created={created} onClose={() => setCreated(null)} />
    </Card>
  );
}
