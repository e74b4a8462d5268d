import type { HandlerMap } from '../../http/handlers.js';
import { goodsHandlers } from './goods.js';
import { orderHandlers } from './orders.js';
import { shopHandlers } from './shop.js';

/** Orders: the goods institutions sell, the orders of them, and the respondent's shop. */
export const ordersHandlers = {
  ...goodsHandlers,
  ...orderHandlers,
  ...shopHandlers,
} satisfies HandlerMap;
