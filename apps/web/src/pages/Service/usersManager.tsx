import AccountsPage from './AccountsPage';

/** Provider management (SPEC §2 /Service/usersManager, code 00022): the service providers (type 005). */
export default function UsersManager() {
  return <AccountsPage kind="provider" />;
}
