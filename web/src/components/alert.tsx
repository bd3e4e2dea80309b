import { Alert } from 'antd';
import { createContext, type ReactNode, useContext, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';

/** The alert types (docs/domain.md §10); danger is antd's error. */
export type AlertType = 'success' | 'info' | 'warning' | 'danger';
export interface AlertState {
  type: AlertType;
  message: string;
}

interface AlertContextValue {
  alert: AlertState | null;
  setAlert: (alert: AlertState | null) => void;
}
const AlertContext = createContext<AlertContextValue>({ alert: null, setAlert: () => {} });

/** The shared alert (docs/domain.md §10): set by sign-in and registration, cleared on every route change. */
export function AlertProvider({ children }: { children: ReactNode }) {
  const [alert, setAlert] = useState<AlertState | null>(null);
  const value = useMemo(() => ({ alert, setAlert }), [alert]);
  return <AlertContext.Provider value={value}>{children}</AlertContext.Provider>;
}

export const useAlert = () => useContext(AlertContext);

/** Shows the shared alert, if any. */
export function AlertMessage() {
  const { alert, setAlert } = useAlert();
  const { t } = useTranslation();
  if (!alert) return null;
  return (
    <Alert
      role="alert"
      type={alert.type === 'danger' ? 'error' : alert.type}
      title={alert.message}
      showIcon
      closable={{ onClose: () => setAlert(null), 'aria-label': t('common.close') }}
      style={{ marginBottom: 16 }}
    />
  );
}
