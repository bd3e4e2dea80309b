import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';

/** Sets the browser tab's title to the page's, and back to the product's name when the page goes. */
export function usePageTitle(title: string) {
  const { t } = useTranslation();
  useEffect(() => {
    document.title = `${title} · ${t('app.name')}`;
    return () => {
      document.title = t('app.name');
    };
  }, [title, t]);
}
