import { defineBackground } from 'wxt/utils/define-background';

export default defineBackground(() => {
  console.log('[afr] background');
});
