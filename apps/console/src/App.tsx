/**
 * The console: providers (query cache, language, antd locale, session), then the routes. Pages load
 * lazily so the first paint carries only the frame and the page asked for.
 */
import { QueryClientProvider } from '@tanstack/react-query';
import { App as AntApp, ConfigProvider } from 'antd';
import enUS from 'antd/locale/en_US';
import zhCNLocale from 'antd/locale/zh_CN';
import dayjs from 'dayjs';
import 'dayjs/locale/zh-cn';
import { lazy, useEffect, useState } from 'react';
import { BrowserRouter, Navigate, Route, Routes, useLocation } from 'react-router-dom';
import { createQueryClient } from './api/query-client';
import { pagesOf, type PageId } from './auth/access';
import { AuthProvider, useAuth } from './auth/AuthContext';
import { AppLayout } from './components/AppLayout';
import { NotFound } from './components/NotFound';
import { PageSpinner } from './components/PageSpinner';
import { RequirePage } from './components/RequirePage';
import { I18nProvider, useI18n } from './i18n';
import { NoAccessPage } from './pages/NoAccessPage';
import { SignInPage } from './pages/SignInPage';

const PAGES: Record<PageId, React.LazyExoticComponent<() => React.JSX.Element>> = {
  overview: lazy(() => import('./pages/OverviewPage')),
  tools: lazy(() => import('./pages/ToolsPage')),
  bindings: lazy(() => import('./pages/BindingsPage')),
  upstreams: lazy(() => import('./pages/UpstreamsPage')),
  approvals: lazy(() => import('./pages/ApprovalsPage')),
  notifications: lazy(() => import('./pages/NotificationsPage')),
  audit: lazy(() => import('./pages/AuditPage')),
  runs: lazy(() => import('./pages/RunsPage')),
  keys: lazy(() => import('./pages/KeysPage')),
};
/** A run's transcript: its own address, so a run can be linked to. */
const RunTranscriptPage = lazy(() => import('./pages/RunTranscriptPage'));
/** One approval: the address notifications link to. */
const ApprovalLinkPage = lazy(() => import('./pages/ApprovalLinkPage'));

function ConsoleRoutes() {
  const { principal, restoring } = useAuth();
  const { pathname } = useLocation();
  if (restoring) return <PageSpinner />;
  // A person the IdP knows but no claim rule gives a role (the gateway's callback sends them here).
  if (!principal) return pathname === '/no-access' ? <NoAccessPage /> : <SignInPage />;
  const home = pagesOf(principal)[0] ?? 'approvals';
  return (
    <Routes>
      <Route element={<AppLayout />}>
        <Route index element={<Navigate to={`/${home}`} replace />} />
        {(Object.keys(PAGES) as PageId[]).map((page) => {
          const Page = PAGES[page];
          return (
            <Route
              key={page}
              path={`/${page}`}
              element={
                <RequirePage page={page}>
                  <Page />
                </RequirePage>
              }
            />
          );
        })}
        <Route
          path="/runs/:runId"
          element={
            <RequirePage page="runs">
              <RunTranscriptPage />
            </RequirePage>
          }
        />
        <Route
          path="/approvals/:approvalId"
          element={
            <RequirePage page="approvals">
              <ApprovalLinkPage />
            </RequirePage>
          }
        />
        <Route path="*" element={<NotFound />} />
      </Route>
    </Routes>
  );
}

// Someone who asked their system for less motion gets none: dialogs, menus and drawers appear
// at once (WCAG 2.3.3). The browser tests ask for it too, so a click never lands mid-animation.
const motionTheme = {
  token: { motion: !window.matchMedia?.('(prefers-reduced-motion: reduce)').matches },
};

function Localized() {
  const { language, t } = useI18n();
  useEffect(() => {
    dayjs.locale(language === 'en' ? 'en' : 'zh-cn');
    document.documentElement.lang = language;
    document.title = t('app.title');
  }, [language, t]);
  return (
    <ConfigProvider locale={language === 'en' ? enUS : zhCNLocale} theme={motionTheme}>
      <AntApp>
        <AuthProvider>
          <BrowserRouter basename="/console">
            <ConsoleRoutes />
          </BrowserRouter>
        </AuthProvider>
      </AntApp>
    </ConfigProvider>
  );
}

export function App() {
  const [queryClient] = useState(createQueryClient);
  return (
    <QueryClientProvider client={queryClient}>
      <I18nProvider>
        <Localized />
      </I18nProvider>
    </QueryClientProvider>
  );
}
