import { KeyOutlined, LoginOutlined } from '@ant-design/icons';
import { Alert, Button, Card, Divider, Form, Input, Segmented, Typography } from 'antd';
import { useState } from 'react';
import { AgentKeyError, useAuth } from '../auth/AuthContext';
import { useSignInProviders } from '../auth/useSignInProviders';
import { ErrorAlert } from '../components/ErrorAlert';
import { LANGUAGE_OPTIONS, useI18n, type Language } from '../i18n';

/** Why the IdP's callback sent the browser back here (a short, fixed word set by the gateway). */
const SIGN_IN_ERRORS = new Set(['refused', 'idp_error', 'unreachable', 'roles_conflict']);

/**
 * Sign-in through the company's identity provider when the gateway has one, and with an API key
 * (always: platform admins without an IdP); agent keys are refused with a reason.
 */
export function SignInPage() {
  const { t, language, setLanguage } = useI18n();
  const { signIn, signOutReason } = useAuth();
  const providers = useSignInProviders();
  const ssoError = new URLSearchParams(window.location.search).get('signInError');
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
        {ssoError && SIGN_IN_ERRORS.has(ssoError) && (
          <Alert
            type="error"
            showIcon
            data-testid="sso-error"
            title={t(
              `signIn.ssoError.${ssoError as 'refused' | 'idp_error' | 'unreachable' | 'roles_conflict'}`,
            )}
            style={{ marginBottom: 16 }}
          />
        )}
        {providers?.oidc && (
          <>
            <Button
              type="primary"
              block
              size="large"
              icon={<LoginOutlined />}
              href={providers.oidc.loginUrl}
              data-testid="sso-sign-in"
            >
              {t('signIn.sso', { name: providers.oidc.displayName })}
            </Button>
            <Divider plain>{t('signIn.orKey')}</Divider>
          </>
        )}
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
