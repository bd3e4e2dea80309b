import { type QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { App as AntApp, ConfigProvider, type FormProps, type ThemeConfig } from 'antd';
import enGB from 'antd/locale/en_GB';
import ltLT from 'antd/locale/lt_LT';
import { type ReactNode, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { AlertProvider } from './components/alert';
import { useNamesInUiLanguage } from './components/spoken-names';
import { useLanguage } from './i18n';

/**
 * antd's theme with colours that pass WCAG AA contrast (4.5:1) on white and on the page's grey:
 * white on the primary blue 6.3:1 (antd's #1677ff gives 4.1:1), secondary text and descriptions
 * 6:1 (antd's 45 % black gives 3.3:1), placeholders 4.8:1 (25 % black: 1.8:1); coloured tags in index.css.
 * docs/accessibility.md.
 */
const THEME: ThemeConfig = {
  token: {
    colorPrimary: '#0958d9',
    colorLink: '#0958d9',
    // Hover and pressed states darker, not lighter (antd's lighter hover blue is 4.2:1 on white).
    colorPrimaryHover: '#003eb3',
    colorPrimaryActive: '#002c8c',
    colorLinkHover: '#003eb3',
    colorLinkActive: '#002c8c',
    colorInfo: '#0958d9',
    colorTextDescription: 'rgba(0, 0, 0, 0.62)',
    colorTextTertiary: 'rgba(0, 0, 0, 0.62)',
    colorTextPlaceholder: 'rgba(0, 0, 0, 0.55)',
    colorError: '#cf1322',
    // Success text and tags ("Galioja"): antd's #389e0d is 3.4:1 on its pale green.
    colorSuccess: '#237804',
    // antd derives the pale backgrounds from the status colour: from this dark green a grey-green
    // (#adb8a5, 2.7:1 under "Galioja"); antd's own pale green and its border instead (5.4:1).
    colorSuccessBg: '#f6ffed',
    colorSuccessBorder: '#b7eb8f',
    // Warning text (an unknown model in the device dialog): #ad6800 is 4.41:1 on white; this is 6.8:1,
    // with antd's own pale yellow and its border under it (not derived from the darker colour).
    colorWarning: '#874d00',
    colorWarningBg: '#fffbe6',
    colorWarningBorder: '#ffe58f',
    borderRadius: 6,
  },
};

/**
 * The form's type messages in the UI language: antd's Lithuanian names the type in English
 * ("El. paštas neatitinka tipo email"). `${label}` is antd's placeholder, not i18next's.
 */
function useValidateMessages(): FormProps['validateMessages'] {
  const { t } = useTranslation();
  return useMemo(() => {
    const other = t('validation.other');
    return {
      types: {
        email: t('validation.email'),
        url: t('validation.url'),
        number: t('validation.number'),
        integer: t('validation.integer'),
        float: t('validation.number'),
        ...Object.fromEntries(
          ['string', 'method', 'array', 'object', 'date', 'boolean', 'regexp', 'hex'].map((type) => [type, other]),
        ),
      },
    };
  }, [t]);
}

/**
 * What every screen runs inside, in the app and in component tests alike: the query
 * cache, antd's locale following the UI language (British English: calendars start on
 * Monday, docs/domain.md §10), antd's App (modal host, messages), the shared alert.
 */
export function AppProviders({ queryClient, children }: { queryClient: QueryClient; children: ReactNode }) {
  const language = useLanguage();
  useNamesInUiLanguage();
  const validateMessages = useValidateMessages();
  return (
    <QueryClientProvider client={queryClient}>
      <ConfigProvider locale={language === 'en' ? enGB : ltLT} theme={THEME} form={{ validateMessages }}>
        <AntApp>
          <AlertProvider>{children}</AlertProvider>
        </AntApp>
      </ConfigProvider>
    </QueryClientProvider>
  );
}
