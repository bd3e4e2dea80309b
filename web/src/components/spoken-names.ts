import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';

const ICON = '.anticon[aria-label]';
/** antd's clear buttons: Input's (named by its icon), Select's (aria-label "Clear"), the pickers'. */
const CLEAR = '.ant-input-clear-icon, .ant-select-clear, .ant-picker-clear';
/** A pager's arrow buttons: named by their item's title (antd's locale translates it), not by the icon. */
const PAGER = '.ant-pagination-prev .ant-pagination-item-link, .ant-pagination-next .ant-pagination-item-link';
/** Input.Search's button: only an icon (its name was "search"). */
const SEARCH = '.ant-input-search-btn';

/** The names given in the UI language. */
export interface SpokenNames {
  clear: string;
  search: string;
}

/** An antd icon that says only its own English name (`aria-label="close-circle"`, class `anticon-close-circle`). */
const namesItself = (el: Element) => {
  const label = el.getAttribute('aria-label');
  return !!label && el.classList.contains(`anticon-${label}`);
};

function fix(el: Element, { clear, search }: SpokenNames) {
  if (el.matches(ICON) && namesItself(el)) {
    el.removeAttribute('aria-label');
    el.setAttribute('aria-hidden', 'true');
  }
  if (el.matches(CLEAR) && el.getAttribute('aria-label') !== clear) el.setAttribute('aria-label', clear);
  if (el.matches(SEARCH) && !el.textContent?.trim() && el.getAttribute('aria-label') !== search)
    el.setAttribute('aria-label', search);
  if (el.matches(PAGER)) {
    const title = el.closest('li')?.getAttribute('title');
    if (title && el.getAttribute('aria-label') !== title) el.setAttribute('aria-label', title);
  }
}

function fixWithin(node: Node, names: SpokenNames) {
  if (!(node instanceof Element)) return;
  fix(node, names);
  for (const el of Array.from(node.querySelectorAll(`${ICON}, ${CLEAR}, ${PAGER}, ${SEARCH}`))) fix(el, names);
}

/**
 * antd names things in English whatever its locale: its icons name themselves
 * (`<span role="img" aria-label="file-excel">`, its own too: an alert's sign, a tree's switcher), so a
 * screen reader reads "file-excel Excel" on a Lithuanian page, and a clear button is "Clear" or
 * "close-circle". Under `root`, now and as the page changes: an icon that carries only that name is
 * decoration, hidden from assistive technology (an icon given a name of its own, a translated
 * `aria-label`, keeps it), every clear button is named `clear`, a search field's icon button
 * `search`, and a pager's arrow by its item's translated title. docs/accessibility.md. Returns the stop.
 */
export function nameInUiLanguage(root: Element, names: SpokenNames): () => void {
  fixWithin(root, names);
  const observer = new MutationObserver((records) => {
    for (const record of records) {
      if (record.type === 'attributes') fixWithin(record.target, names);
      else for (const node of Array.from(record.addedNodes)) fixWithin(node, names);
    }
  });
  observer.observe(root, {
    childList: true,
    subtree: true,
    attributes: true,
    attributeFilter: ['aria-label', 'title'],
  });
  return () => observer.disconnect();
}

/** nameInUiLanguage on the whole document (dialogs and popups are drawn outside the app's root), in the UI language. */
export function useNamesInUiLanguage() {
  const { t } = useTranslation();
  const clear = t('common.clear');
  const search = t('common.search');
  useEffect(() => nameInUiLanguage(document.body, { clear, search }), [clear, search]);
}
