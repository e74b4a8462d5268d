import AccountsPage from './AccountsPage';

/** Institution management (SPEC §2 /Service/terminal, code 00021): schools, hospitals, employers, elderly-care homes. */
export default function Terminal() {
  return <AccountsPage kind="institution" />;
}
