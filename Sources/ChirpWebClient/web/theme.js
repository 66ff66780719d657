// The colour theme: 'system' (the default, following prefers-color-scheme), 'dark', 'light'
// or 'contrast', kept for this browser.
const KEY = 'chirp.theme';
export const THEMES = [['system', 'System'], ['dark', 'Dark'], ['light', 'Light'], ['contrast', 'High contrast']];
export const currentTheme = () => localStorage.getItem(KEY) || 'system';
export function applyTheme(theme = currentTheme()) {
  localStorage.setItem(KEY, theme);
  if (theme === 'system') delete document.documentElement.dataset.theme;
  else document.documentElement.dataset.theme = theme;
}
