import { KeyOutlined } from '@ant-design/icons';
import { Alert, Button, Card, Form, Input, Segmented, Typography } from 'antd';
import { useState } from 'react';
import { AgentKeyError, useAuth } from '../auth/AuthContext';
import { ErrorAlert } from '../components/ErrorAlert';
import { LANGUAGE_OPTIONS, useI18n, type Language } from '../i18n';

/** Sign-in with an API key; agent keys are refused with a reason. */
export function SignInPage() {
  const { t, language, setLanguage } = useI18n();
  const { signIn, signOutReason } = useAuth();
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);

  const submit = async ({ key }: { key: string }) => {
    setBusy(true);
    setError(null);
    try {
      await signIn(key.trim());
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  };

  return (
    <div
      style={{
        minHeight: '100vh',
        display: 'flex',
        alignItems: 'center',
        justifyContent: 'center',
        background: 'linear-gradient(180deg, #f0f5ff 0%, #f5f5f5 100%)',
      }}
    >
      <Card style={{ width: 440 }} data-testid="sign-in">
        <div
          style={{ display: 'flex', justifyContent: 'space-between', alignItems: 'center', marginBottom: 8 }}
        >
          <Typography.Title level={3} style={{ margin: 0 }}>
            {t('signIn.title')}
          </Typography.Title>
        </div>
        <Segmented<Language>
          size="small"
          value={language}
          onChange={setLanguage}
          options={LANGUAGE_OPTIONS}
          style={{ marginBottom: 16 }}
        />
        <Typography.Paragraph type="secondary">{t('signIn.hint')}</Typography.Paragraph>
        {signOutReason === 'expired' && !error && (
          <Alert type="warning" showIcon title={t('signIn.expired')} style={{ marginBottom: 16 }} />
        )}
        {error instanceof AgentKeyError ? (
          <Alert
            type="error"
            showIcon
            data-testid="agent-refused"
            title={t('signIn.agentRefused')}
            style={{ marginBottom: 16 }}
          />
        ) : (
          <ErrorAlert error={error} />
        )}
        <Form layout="vertical" onFinish={submit} requiredMark={false}>
          <Form.Item
            name="key"
            label={t('signIn.key')}
            rules={[{ required: true, whitespace: true, message: t('signIn.keyRequired') }]}
          >
            <Input.Password
              prefix={<KeyOutlined />}
              placeholder={t('signIn.keyPlaceholder')}
              autoComplete="off"
              data-testid="api-key-input"
            />
          </Form.Item>
          <Button type="primary" htmlType="submit" block loading={busy} data-testid="sign-in-submit">
            {t('signIn.submit')}
          </Button>
        </Form>
      </Card>
    </div>
  );
}
