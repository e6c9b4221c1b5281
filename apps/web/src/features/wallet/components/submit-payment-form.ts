/**
 * Posts the payment fields to the payment page as a hidden form in a new tab (the console stays
 * open). Every field becomes one hidden input; the form is removed right after submitting.
 */
export function submitPaymentForm(url: string, fields: Record<string, string>, target = '_blank'): void {
  const form = document.createElement('form');
  form.method = 'POST';
  form.action = url;
  form.target = target;
  form.style.display = 'none';
  for (const [name, value] of Object.entries(fields)) {
    const input = document.createElement('input');
    input.type = 'hidden';
    input.name = name;
    input.value = value;
    form.appendChild(input);
  }
  document.body.appendChild(form);
  form.submit();
  form.remove();
}
