import { STORAGE_KEYS } from '@/lib/storage-keys';

/**
 * Runs before first paint: marks <html> when this browser session already
 * confirmed, so CSS hides the gate and the blur without a flash.
 */
export const AGE_GATE_BOOT_SCRIPT = `try{if(sessionStorage.getItem(${JSON.stringify(
  STORAGE_KEYS.ageConfirmed,
)})==='true')document.documentElement.dataset.ageConfirmed='true'}catch(e){}`;
