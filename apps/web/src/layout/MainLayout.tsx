export default function MainLayout() {
  return null;
}
