import { defineArea } from '../../area';

/** Persons registered through the institution's QR link, per hour, and undoing a burst (archives.linkEntry.*, issue 27 item 4). */
export default defineArea({
  zh: {
    open: '扫码登记记录',
    title: '通过二维码登记的人员（近 7 天，按小时）',
    help: '任何拿到机构二维码的人都可以登记。如果某一小时的登记明显异常（例如同一时间大量登记、大量预警），可以撤销该小时的全部扫码登记：删除这些人员及其预警个案、测评码和报告，不影响其他人员。撤销前会显示将删除的人数，操作记入审计日志。',
    hour: '时段',
    count: '登记人数',
    warnings: '有预警',
    undoneCol: '已撤销',
    undo: '撤销',
    empty: '近 7 天没有通过二维码登记的人员',
    nothing: '该时段已没有可撤销的登记',
    undoTitle: '撤销扫码登记',
    undoConfirm:
      '将删除 {{hour}} 通过二维码登记的 {{persons}} 人，以及他们的 {{cases}} 个预警个案和 {{reports}} 份测评报告。删除后不可恢复，确定撤销吗？',
    undone: '已撤销 {{count}} 人的扫码登记',
    undone_one: '已撤销 {{count}} 人的扫码登记',
  },
  en: {
    open: 'QR registrations',
    title: 'Persons registered through the QR code (last 7 days, by hour)',
    help: 'Anyone with the institution’s QR code can register. If an hour looks wrong (many registrations at once, many warnings), undo all QR registrations of that hour: the persons, their warning cases, codes and reports are removed, and nobody else is touched. You see how many will be removed first; the undo is audited.',
    hour: 'Hour',
    count: 'Registered',
    warnings: 'With warnings',
    undoneCol: 'Undone',
    undo: 'Undo',
    empty: 'Nobody registered through the QR code in the last 7 days',
    nothing: 'Nothing is left to undo in this hour',
    undoTitle: 'Undo QR registrations',
    undoConfirm:
      'This removes the {{persons}} persons registered through the QR code in the hour {{hour}}, with their {{cases}} warning cases and {{reports}} reports. It cannot be reversed. Undo them?',
    undone: 'Undid the QR registrations of {{count}} persons',
    undone_one: 'Undid the QR registration of {{count}} person',
  },
});
