/**
 * Languages of the console: zh-CN first, English on request. The choice persists in localStorage
 * (it is not a secret) and goes to the API as Accept-Language, so envelope messages match the UI.
 */
import { createContext, useCallback, useContext, useMemo, useState, type ReactNode } from 'react';
import { en } from './en';
import { zhCN, type MessageKey } from './zh-CN';

export type Language = 'zh-CN' | 'en';

/** The languages, each in its own name (the language switch, a new tenant's locale). */
export const LANGUAGE_OPTIONS: { value: Language; label: string }[] = [
  { value: 'zh-CN', label: '中文' },
  { value: 'en', label: 'English' },
];

const STORAGE_KEY = 'toolgate.console.language';
const DICTIONARIES: Record<Language, Record<MessageKey, string>> = { 'zh-CN': zhCN, en };

/** Translates a key, filling `{name}` placeholders. */
export type Translate = (key: MessageKey, params?: Record<string, string | number>) => string;

interface I18n {
  readonly language: Language;
  readonly setLanguage: (language: Language) => void;
  readonly t: Translate;
}

function storedLanguage(): Language {
  try {
    return localStorage.getItem(STORAGE_KEY) === 'en' ? 'en' : 'zh-CN';
  } catch {
    return 'zh-CN';
  }
}

/** Fills `{name}` placeholders of a message. */
export function format(message: string, params?: Record<string, string | number>): string {
  if (!params) return message;
  return message.replace(/\{(\w+)\}/g, (whole, name: string) =>
    name in params ? String(params[name]) : whole,
  );
}

const I18nContext = createContext<I18n | null>(null);

export function I18nProvider({ children }: { children: ReactNode }) {
  const [language, setLanguageState] = useState<Language>(storedLanguage);

  const setLanguage = useCallback((next: Language) => {
    try {
      localStorage.setItem(STORAGE_KEY, next);
    } catch {
      /* private mode: the choice lasts for this page only */
    }
    setLanguageState(next);
  }, []);

  const value = useMemo<I18n>(() => {
    const dict = DICTIONARIES[language];
    return { language, setLanguage, t: (key, params) => format(dict[key], params) };
  }, [language, setLanguage]);
  return <I18nContext.Provider value={value}>{children}</I18nContext.Provider>;
}

/** The current language, its setter and the translate function. */
export function useI18n(): I18n {
  const ctx = useContext(I18nContext);
  if (!ctx) throw new Error('useI18n outside I18nProvider');
  return ctx;
}

/** Shorthand for `useI18n().t`. */
export function useT(): Translate {
  return useI18n().t;
}
