// Greetings for people.

export function greet(name) {
  if (typeof name !== 'string' || name.trim() === '') throw new TypeError('name must be a non-empty string');
  return `Hello, ${name.trim()}!`;
}

export function shout(text) {
  return text.toUpperCase();
}
