import {
  LOCATION_LEVEL,
  LOCATION_SEARCH_LIMIT,
  type LocationNode,
  TYPEAHEAD_DELAY_MS,
  TYPEAHEAD_MIN_CHARS,
} from '@rodmenys/contract';
import { Form, Select } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchLocations } from '../../api/master-data';
import { useTypeaheadStatus } from '../../components/typeahead-status';
import { useDebounced } from '../../components/use-debounced';

/**
 * Finds a building or a flat by its address (docs/master-data.md, "Finding a location"): from two
 * typed characters, after a pause, at most 50 answers, picked with the arrow keys and Enter.
 */
export function LocationSearch({ onPick }: { onPick: (location: LocationNode) => void }) {
  const { t } = useTranslation();
  const [text, setText] = useState('');
  const debounced = useDebounced(text.trim(), TYPEAHEAD_DELAY_MS);
  const enabled = debounced.length >= TYPEAHEAD_MIN_CHARS;
  const found = useSearchLocations(debounced, enabled);
  const waiting = text.trim() !== debounced || found.isFetching;
  const status = useTypeaheadStatus(text, TYPEAHEAD_MIN_CHARS, waiting);
  const rows = enabled ? (found.data ?? []) : [];
  const label = t('masterData.search.label');
  const describe = (n: LocationNode) => {
    const kind = t(n.Level === LOCATION_LEVEL.building ? 'masterData.search.building' : 'masterData.search.flat');
    return `${kind}: ${n.Path}${n.ObjectCode && n.Level === LOCATION_LEVEL.building ? ` (${n.ObjectCode})` : ''}`;
  };
  return (
    <Form.Item
      label={label}
      htmlFor="master-data-search"
      layout="vertical"
      style={{ marginBottom: 12 }}
      extra={
        rows.length >= LOCATION_SEARCH_LIMIT ? t('masterData.search.more', { limit: LOCATION_SEARCH_LIMIT }) : null
      }
    >
      <Select<number>
        id="master-data-search"
        aria-label={label}
        style={{ width: '100%' }}
        showSearch={{ filterOption: false, onSearch: setText, searchValue: text }}
        value={null}
        placeholder={t('masterData.search.placeholder')}
        options={rows.map((n) => ({ value: n.Id, label: describe(n) }))}
        onSelect={(id) => {
          const picked = rows.find((n) => n.Id === id);
          if (picked) onPick(picked);
          setText('');
        }}
        suffixIcon={null}
        notFoundContent={status}
      />
    </Form.Item>
  );
}
