/** antd's static message and Modal, loaded on demand by feedback.ts (only these two, not all of antd). */
export { message, Modal } from 'antd';
