// The dashboard's only script (CSP: script-src 'self'). Every page works without it; it adds
// the copy buttons and the confirmation of forms marked data-confirm.

document.addEventListener('DOMContentLoaded', () => {
  for (const button of document.querySelectorAll('button[data-copy-target]')) {
    const target = document.getElementById(button.getAttribute('data-copy-target'));
    if (!target || !navigator.clipboard) continue;
    button.hidden = false;
    button.addEventListener('click', () => {
      navigator.clipboard.writeText(target.textContent.trim()).then(
        () => {
          button.textContent = 'Copied';
        },
        () => {
          button.textContent = 'Select and copy';
        },
      );
    });
  }
  for (const form of document.querySelectorAll('form[data-confirm]')) {
    form.addEventListener('submit', (event) => {
      if (!window.confirm(form.getAttribute('data-confirm'))) event.preventDefault();
    });
  }
});
