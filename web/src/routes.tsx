import { OCCUPANT_CODE_PATH, OCCUPANT_LINK_PATH } from '@rodmenys/contract';
import { lazy, type ReactNode } from 'react';
import { Navigate, type RouteObject } from 'react-router';
import type { Screen } from './access';
import { RequireAccess } from './components/shell/require-access';
import { RequireUser } from './components/shell/require-user';
import { Root } from './components/shell/root';
import { RequireOccupant } from './pages/occupant/require-occupant';

// Every screen is its own chunk: the sign-in page loads only what it needs.
const AuthLayout = lazy(() => import('./components/shell/auth-layout'));
const AppShell = lazy(() => import('./components/shell/app-shell'));
const LoginPage = lazy(() => import('./pages/login/login-page'));
const RegisterPage = lazy(() => import('./pages/register/register-page'));
const HomePage = lazy(() => import('./pages/home/home-page'));
const ProfilePage = lazy(() => import('./pages/profile/profile-page'));
const UsersPage = lazy(() => import('./pages/users/users-page'));
const MyObjectsPage = lazy(() => import('./pages/my-objects/my-objects-page'));
const LocationDataPage = lazy(() => import('./pages/location-data/location-data-page'));
const DeviceDataPage = lazy(() => import('./pages/device-data/device-data-page'));
const MasterDataPage = lazy(() => import('./pages/master-data/master-data-page'));
const AuditPage = lazy(() => import('./pages/audit/audit-page'));
const CollectorsPage = lazy(() => import('./pages/collectors/collectors-page'));
const LorawanPage = lazy(() => import('./pages/lorawan/lorawan-page'));
const IntegrationsPage = lazy(() => import('./pages/integrations/integrations-page'));
const DevicesPage = lazy(() => import('./pages/devices/devices-page'));
const DataQualityPage = lazy(() => import('./pages/data-quality/data-quality-page'));
const StatementsPage = lazy(() => import('./pages/statements/statements-page'));
const NotFoundPage = lazy(() => import('./pages/not-found/not-found-page'));
// The occupant's pages (docs/occupant-access.md): their own frame, no back-office shell.
const OccupantLayout = lazy(() => import('./pages/occupant/occupant-layout'));
const OccupantCodePage = lazy(() => import('./pages/occupant/code-page'));
const OccupantLinkPage = lazy(() => import('./pages/occupant/link-page'));
const OccupantMonthsPage = lazy(() => import('./pages/occupant/months-page'));
const OccupantStatementPage = lazy(() => import('./pages/occupant/statement-page'));
const OccupantDeclarePage = lazy(() => import('./pages/occupant/declare-page'));

/** A signed-in screen: its path, and the element behind the access table of access.ts. */
const screen = (path: Screen, element: ReactNode): RouteObject => ({
  path,
  element: <RequireAccess screen={path}>{element}</RequireAccess>,
});

/** The route table (docs/domain.md §10). Template demo routes are not built: they fall to the not-found page. */
export const routes: RouteObject[] = [
  {
    element: <Root />,
    children: [
      {
        element: <AuthLayout />,
        children: [
          { path: '/login', element: <LoginPage /> },
          { path: '/register', element: <RegisterPage /> },
        ],
      },
      {
        path: OCCUPANT_CODE_PATH,
        element: <OccupantLayout />,
        children: [
          { index: true, element: <OccupantCodePage /> },
          { path: OCCUPANT_LINK_PATH, element: <OccupantLinkPage /> },
          {
            element: <RequireOccupant />,
            children: [
              { path: 'months', element: <OccupantMonthsPage /> },
              { path: 'months/:month', element: <OccupantStatementPage /> },
              { path: 'declare', element: <OccupantDeclarePage /> },
            ],
          },
          { path: '*', element: <Navigate to={OCCUPANT_CODE_PATH} replace /> },
        ],
      },
      {
        element: <RequireUser />,
        children: [
          {
            element: <AppShell />,
            children: [
              screen('/', <HomePage />),
              screen('/profile', <ProfilePage />),
              screen('/users', <UsersPage />),
              screen('/myObjects', <MyObjectsPage />),
              screen('/locationData', <LocationDataPage />),
              screen('/deviceData', <DeviceDataPage />),
              screen('/masterData', <MasterDataPage />),
              screen('/audit', <AuditPage />),
              screen('/collectors', <CollectorsPage />),
              screen('/lorawan', <LorawanPage />),
              screen('/integrations', <IntegrationsPage />),
              screen('/devices', <DevicesPage />),
              screen('/anomalies', <DataQualityPage />),
              screen('/statements', <StatementsPage />),
              { path: '*', element: <NotFoundPage /> },
            ],
          },
        ],
      },
    ],
  },
];
