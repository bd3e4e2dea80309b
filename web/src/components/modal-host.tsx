import type { ModalFuncProps } from 'antd';
import { App } from 'antd';
import { useCallback, useRef, useState } from 'react';
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

/** A dialog's closing (`useDialogClose`): whether it is open, how to close it, what its Modal takes. */
export interface DialogClose<R> {
  open: boolean;
  close: (result: R) => void;
  modalProps: { open: boolean; afterClose: () => void };
}

/**
 * A dialog that its owner shows while it is wanted (`{editing && <Dialog onClose={…} />}`) and that
 * closes as antd's own dialogs do: `close(result)` lets it animate out and give the focus back to the
 * control that opened it, and only then tells the owner (`onClosed(result)`), which removes it and may
 * move the focus on to what the dialog made. Removed at once instead, the dialog would take the focus
 * with it to the page's body (docs/accessibility.md, "Keyboard"). Spread `modalProps` into the Modal.
 */
export function useDialogClose<R = void>(onClosed: (result: R) => void): DialogClose<R> {
  const [open, setOpen] = useState(true);
  const result = useRef<{ value: R } | null>(null);
  const close = useCallback((value: R) => {
    result.current ??= { value };
    setOpen(false);
  }, []);
  const afterClose = () => {
    if (result.current) onClosed(result.current.value);
  };
  return { open, close, modalProps: { open, afterClose } };
}
