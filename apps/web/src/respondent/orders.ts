import { safeStorage } from './i18n';

/**
 * The buyer's orders on this phone: the secret order tokens the server answered, kept per QR
 * entry. There is no sign-in for buyers: these tokens are what show a course to be bought (the
 * media page sends them), so they stay on the device that paid.
 */
const MAX = 50;
const keyOf = (entrytoken: string) => `xinli.orders.${entrytoken}`;

export function ordersOf(entrytoken: string): string[] {
  try {
    const list: unknown = JSON.parse(safeStorage()?.getItem(keyOf(entrytoken)) ?? '[]');
    return Array.isArray(list) ? list.filter((x): x is string => typeof x === 'string' && /^[0-9a-f]{48}$/.test(x)).slice(-MAX) : [];
  } catch {
    return [];
  }
}

export function rememberOrder(entrytoken: string, ordertoken: string) {
  const list = [...ordersOf(entrytoken).filter((x) => x !== ordertoken), ordertoken].slice(-MAX);
  try {
    safeStorage()?.setItem(keyOf(entrytoken), JSON.stringify(list));
  } catch {
    // Storage full or refused: the purchase stands; only this phone forgets it.
  }
}

/**
 * The order this phone is paying, kept while the buyer is at the provider's cashier (another page):
 * when the cashier sends them back (`/r/<entry>/shop?order=<orderid>`) the shop shows that order.
 */
const payingKey = (entrytoken: string) => `xinli.paying.${entrytoken}`;

export function rememberPaying(entrytoken: string, ordertoken: string) {
  try {
    safeStorage()?.setItem(payingKey(entrytoken), ordertoken);
  } catch {
    // Refused: back from the cashier, the shop list is shown instead of the order.
  }
}

export function payingOrder(entrytoken: string): string | null {
  const token = safeStorage()?.getItem(payingKey(entrytoken)) ?? null;
  return token && /^[0-9a-f]{48}$/.test(token) ? token : null;
}
