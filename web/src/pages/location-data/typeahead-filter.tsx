import {
  type AddressLevel,
  TYPEAHEAD_DELAY_MS,
  TYPEAHEAD_LIMIT,
  TYPEAHEAD_MIN_CHARS,
  TYPEAHEAD_MIN_CHARS_BUILDING,
} from '@rodmenys/contract';
import { AutoComplete, Form } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useTypeahead } from '../../api/location-data';
import { useTypeaheadStatus } from '../../components/typeahead-status';
import { useAllowClear } from '../../components/use-clear';
import { useDebounced } from '../../components/use-debounced';

interface TypeaheadFilterProps {
  level: AddressLevel;
  /** Called with the filter text once typing pauses (500 ms) or a suggestion is picked. */
  onChange: (value: string) => void;
}

/**
 * An address filter with suggestions (docs/domain.md §10): from 2 typed characters (1 for Building),
 * after a 500 ms pause, at most 10 suggestions, "Searching..." and "No result".
 */
export function TypeaheadFilter({ level, onChange }: TypeaheadFilterProps) {
  const { t } = useTranslation();
  const allowClear = useAllowClear();
  const [text, setText] = useState('');
  const debounced = useDebounced(text.trim(), TYPEAHEAD_DELAY_MS);
  const minChars = level === 'Building' ? TYPEAHEAD_MIN_CHARS_BUILDING : TYPEAHEAD_MIN_CHARS;
  const enabled = debounced.length >= minChars;
  const suggestions = useTypeahead(level, debounced, enabled);
  const waiting = text.trim() !== debounced || suggestions.isFetching;

  // biome-ignore lint/correctness/useExhaustiveDependencies: onChange is a fresh closure on every render
  useEffect(() => onChange(debounced), [debounced]);

  const status = useTypeaheadStatus(text, minChars, waiting);
  const label = t(`locationData.${level}`);
  const options = enabled ? (suggestions.data ?? []).slice(0, TYPEAHEAD_LIMIT).map((v) => ({ value: v })) : [];
  return (
    <Form.Item label={label} htmlFor={`filter-${level}`} style={{ marginBottom: 0 }}>
      <AutoComplete
        id={`filter-${level}`}
        aria-label={label}
        value={text}
        options={options}
        allowClear={allowClear}
        placeholder={t('locationData.filterPlaceholder', { count: minChars })}
        onChange={(value: string | undefined) => setText(value ?? '')}
        onSelect={(value: string | undefined) => {
          setText(value ?? '');
          onChange(value ?? '');
        }}
        notFoundContent={status}
      />
    </Form.Item>
  );
}
