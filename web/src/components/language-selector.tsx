import { LANGUAGES, type Language } from '@rodmenys/contract';
import { Space } from 'antd';
import { useTranslation } from 'react-i18next';
import { changeLanguage, useLanguage } from '../i18n';
import './language-selector.css';

const flags: Record<Language, React.ReactNode> = {
  lt: (
    <svg viewBox="0 0 5 3" width="20" height="12" aria-hidden="true">
      <rect width="5" height="1" fill="#FDB913" />
      <rect y="1" width="5" height="1" fill="#006A44" />
      <rect y="2" width="5" height="1" fill="#C1272D" />
    </svg>
  ),
  en: (
    <svg viewBox="0 0 60 30" width="20" height="12" aria-hidden="true">
      <clipPath id="flag-gb-t">
        <path d="M30,15 h30 v15 z v15 h-30 z h-30 v-15 z v-15 h30 z" />
      </clipPath>
      <path d="M0,0 v30 h60 v-30 z" fill="#012169" />
      <path d="M0,0 L60,30 M60,0 L0,30" stroke="#fff" strokeWidth="6" />
      <path d="M0,0 L60,30 M60,0 L0,30" clipPath="url(#flag-gb-t)" stroke="#C8102E" strokeWidth="4" />
      <path d="M30,0 v30 M0,15 h60" stroke="#fff" strokeWidth="10" />
      <path d="M30,0 v30 M0,15 h60" stroke="#C8102E" strokeWidth="6" />
    </svg>
  ),
};

/** The flag links that switch the UI language (remembered in the browser). */
export function LanguageSelector() {
  const { t } = useTranslation();
  const current = useLanguage();
  return (
    <Space size={4} role="group" aria-label={t('language.label')}>
      {LANGUAGES.map((language) => (
        <a
          key={language}
          href={`?lang=${language}`}
          lang={language}
          aria-current={current === language ? 'true' : undefined}
          title={t(`language.${language}`)}
          className={`language-link${current === language ? ' language-link-active' : ''}`}
          onClick={(event) => {
            event.preventDefault();
            void changeLanguage(language);
          }}
        >
          {flags[language]}
          <span>{language.toUpperCase()}</span>
        </a>
      ))}
    </Space>
  );
}
