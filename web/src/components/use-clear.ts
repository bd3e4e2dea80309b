import { useTranslation } from 'react-i18next';

/**
 * `allowClear` for antd's Select family (Select, TreeSelect, AutoComplete) with the clear
 * button's accessible name in the UI language (antd's own is always "Clear").
 */
export function useAllowClear(): { label: string } {
  const { t } = useTranslation();
  return { label: t('common.clear') };
}
