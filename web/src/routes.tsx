import { lazy } from 'react';
import type { RouteObject } from 'react-router';
import { RequireUser } from './components/shell/require-user';
import { Root } from './components/shell/root';

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
const NotFoundPage = lazy(() => import('./pages/not-found/not-found-page'));

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
        element: <RequireUser />,
        children: [
          {
            element: <AppShell />,
            children: [
              { path: '/', element: <HomePage /> },
              { path: '/profile', element: <ProfilePage /> },
              { path: '/users', element: <UsersPage /> },
              { path: '/myObjects', element: <MyObjectsPage /> },
              { path: '/locationData', element: <LocationDataPage /> },
              { path: '/deviceData', element: <DeviceDataPage /> },
              { path: '/masterData', element: <MasterDataPage /> },
              { path: '/audit', element: <AuditPage /> },
              { path: '/collectors', element: <CollectorsPage /> },
              { path: '*', element: <NotFoundPage /> },
            ],
          },
        ],
      },
    ],
  },
];
