import { Spin } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

/**
 * What a type-ahead's list says when it has no answers: nothing before `minChars` characters,
 * "Searching..." while the typing pauses or the answer is on its way, then "No result".
 */
export function useTypeaheadStatus(text: string, minChars: number, waiting: boolean): ReactNode {
  const { t } = useTranslation();
  if (text.trim().length < minChars) return null;
  return waiting ? (
    <span>
      <Spin size="small" /> {t('typeahead.searching')}
    </span>
  ) : (
    t('typeahead.noResult')
  );
}
