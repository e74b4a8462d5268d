import type { HandlerMap } from '../../http/handlers.js';
import { articleHandlers } from './articles.js';
import { trackHandlers } from './music.js';
import { courseHandlers } from './courses.js';
import { respondentMediaHandlers } from './respondent-media.js';

/** Content: articles, music and courses, and the respondent's media page. */
export const contentHandlers = {
  ...articleHandlers,
  ...trackHandlers,
  ...courseHandlers,
  ...respondentMediaHandlers,
} satisfies HandlerMap;
