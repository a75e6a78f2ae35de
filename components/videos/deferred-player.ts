'use client';

import { deferredIsland } from '@/components/shell/deferred-island';

/**
 * The player's enhancements (decision 031). The <video> itself is server HTML outside the island, so its code
 * arriving never replaces an element that may be playing; the island renders nothing but the autoplay note.
 */
export const DeferredPlayerEnhancer = deferredIsland(() => import('./PlayerEnhancer').then((m) => m.PlayerEnhancer), 'PlayerEnhancer', { as: 'span' });
