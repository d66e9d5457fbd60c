/** What the toolbar button shows over the icon: a short text on a coloured badge, and its tooltip. */
export interface Badge {
  /** At most about four characters fit; empty shows no badge. */
  text: string;
  /** The badge's background, `#rrggbb`. */
  color: string;
  /** The button's tooltip: what the badge means, and why. */
  title: string;
}

/** The browser's toolbar button (platform: `chrome.action`). */
export interface ActionBadge {
  /** Shows `badge` on every tab that has none of its own (`tabId` null), or on that tab only. */
  set(tabId: number | null, badge: Badge): Promise<void>;
}
