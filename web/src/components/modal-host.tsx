import type { ModalFuncProps } from 'antd';
import { App } from 'antd';
import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';

/** Every dialog of the app: static backdrop (a click outside does not close it), no keyboard close. */
export const STATIC_MODAL = { mask: { closable: false }, keyboard: false } as const;

/**
 * Confirmation dialogs from the one modal host (antd's App): static backdrop, no keyboard
 * close, translated buttons. Resolves true on confirm, false on cancel, once the dialog has
 * closed and given the focus back to what opened it: what the caller does next (focus a field
 * it shows, say) is then not undone by that return.
 */
export function useConfirm() {
  const { modal } = App.useApp();
  const { t } = useTranslation();
  return useCallback(
    (props: Omit<ModalFuncProps, 'onOk' | 'onCancel'>) =>
      new Promise<boolean>((resolve) => {
        let confirmed = false;
        modal.confirm({
          okText: t('common.ok'),
          cancelText: t('common.cancel'),
          ...props,
          ...STATIC_MODAL,
          onOk: () => {
            confirmed = true;
          },
          afterClose: () => resolve(confirmed),
        });
      }),
    [modal, t],
  );
}
