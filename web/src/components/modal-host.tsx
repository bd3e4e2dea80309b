import type { ModalFuncProps } from 'antd';
import { App } from 'antd';
import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';

/**
 * Confirmation dialogs from the one modal host (antd's App): static backdrop, no keyboard
 * close, translated buttons. Resolves true on confirm, false on cancel.
 */
export function useConfirm() {
  const { modal } = App.useApp();
  const { t } = useTranslation();
  return useCallback(
    (props: Omit<ModalFuncProps, 'onOk' | 'onCancel'>) =>
      new Promise<boolean>((resolve) => {
        modal.confirm({
          okText: t('common.ok'),
          cancelText: t('common.cancel'),
          ...props,
          maskClosable: false,
          keyboard: false,
          onOk: () => resolve(true),
          onCancel: () => resolve(false),
        });
      }),
    [modal, t],
  );
}
