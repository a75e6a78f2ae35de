/**
 * The header works without the app's JavaScript bundles (decision 030: links load documents, so nothing in it needs
 * React state). Its two menus are popovers (`popover` + `popovertarget`): the browser opens and closes them, closes
 * them on Escape and on an outside click, and shows them in the top layer; CSS shows "Menu" or "Close" on the
 * toggle from the menu's state. Two constant inline scripts, allowed by hash (lib/http/page-policy.ts), like the
 * age gate's (age-gate-boot.ts), do the rest:
 *
 * - HEADER_BOOT_SCRIPT, in <head>: listeners on the document, which need no element of the header yet: a popover's
 *   toggle button follows its state in `aria-expanded`; the categories list opens under its button and closes when
 *   the focus leaves it; widening past the breakpoint closes the mobile menu, whose toggle is then
 *   hidden; a search goes to /search?q=<trimmed, percent-encoded text> (a plain GET would send spaces as `+`) and a
 *   blank one goes nowhere. Without JavaScript the form is a plain GET to /search.
 * - HEADER_READY_SCRIPT, right after the header's markup, before first paint: `aria-current="page"` on the nav
 *   links of this path (the page cache serves one HTML to every visitor; the root layout cannot know the path), and
 *   the URL's `?q=` in both search boxes.
 *
 * Only attributes, properties and inline styles change, never elements: React hydrates the tree the server sent
 * (in production it does not patch attribute differences).
 *
 * Next draws its 404 pages in the browser from the payload, where inline scripts never run: there ShellInBrowser
 * installs the boot script's listeners, once its mark (`data-header-ready` on <html>) shows it did not run.
 */
export const HEADER_BOOT_SCRIPT =
  `(function(){var d=document;d.documentElement.dataset.headerReady='true';` +
  `d.addEventListener('beforetoggle',function(v){var u=v.target,o=v.newState==='open',b=u.id&&d.querySelector('[popovertarget="'+u.id+'"]'),r;if(!b)return;` +
  `b.setAttribute('aria-expanded',o);if(o&&u.classList.contains('dropdown-menu')){r=b.getBoundingClientRect();u.style.top=r.bottom+8+'px';u.style.left=r.left+'px'}},true);` +
  `d.addEventListener('focusout',function(v){var x=v.target.closest&&v.target.closest('.dropdown'),r=v.relatedTarget,u=x&&x.querySelector(':popover-open');` +
  `if(u&&r&&!x.contains(r))u.hidePopover()});` +
  `d.addEventListener('submit',function(v){var f=v.target,t=f.matches('.nav-search')&&f.elements.q.value.trim();if(t===false)return;` +
  `v.preventDefault();if(t)location.assign('/search?q='+encodeURIComponent(t))});` +
  `var m=matchMedia('(min-width: 1024px)');m.addEventListener('change',function(){var u=d.getElementById('mobile-menu');if(m.matches&&u&&u.matches(':popover-open'))u.hidePopover()})})()`;

export const HEADER_READY_SCRIPT =
  `(function(){var d=document,p=location.pathname,q=new URLSearchParams(location.search).get('q'),e,i;` +
  `e=d.querySelectorAll('.nav-links a');for(i=0;i<e.length;i++)if(e[i].getAttribute('href')===p)e[i].setAttribute('aria-current','page');` +
  `if(q!==null){e=d.querySelectorAll('.nav-search input');for(i=0;i<e.length;i++)e[i].value=q}})()`;
