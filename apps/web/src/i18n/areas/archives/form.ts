import { defineArea } from '../../area';

/** The user-archive form's fields (components/archive-form, archives.form.*). */
export default defineArea({
  zh: {
    required: '请填写{{field}}',
    range: '{{field}}应在 {{min}} 到 {{max}} 之间',
    choose: '请选择',
    region: '请选择省 / 市 / 区',
    noForm: '该人群尚未配置用户档案量表',
  },
  en: {
    required: 'Please fill in {{field}}',
    range: '{{field}} must be between {{min}} and {{max}}',
    choose: 'Choose',
    region: 'Province / city / district',
    noForm: 'This population has no user-archive form yet',
  },
});
