/**
 * On `<html>` once React has hydrated the page and Next's router handles
 * clicks: components/providers.tsx sets it a task after hydration's effects,
 * the router's included.
 */
export const HYDRATED_ATTRIBUTE = 'data-hydrated';

/**
 * Run before Next's own scripts (app/layout.tsx), so its listener on the
 * window comes before React's on the document. A link clicked while the page
 * is still hydrating could be lost: React handled the click and Next's router
 * was not ready to navigate, so nothing happened. Until the page is marked
 * hydrated, a click on a link is kept from React and the browser follows the
 * link itself, as it would without JavaScript.
 */
export const EARLY_LINK_CLICKS_SCRIPT = `addEventListener('click',function(event){if(!document.documentElement.hasAttribute('${HYDRATED_ATTRIBUTE}')&&event.target instanceof Element&&event.target.closest('a[href]'))event.stopImmediatePropagation()},true)`;
