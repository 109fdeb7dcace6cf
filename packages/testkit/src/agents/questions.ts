/**
 * The questions the capture drivers and live tests make each agent ask through its own question
 * tool (Gemini CLI's `ask_user`, OpenCode's `question`, Codex's `request_user_input`): one colour
 * question and one size question, two options each with a description.
 */
export const COLOUR_QUESTION = {
  header: 'Colour',
  question: 'Which colour should the collie be?',
  options: [
    { label: 'Black', description: 'The classic coat' },
    { label: 'Sable', description: 'Golden brown' },
  ],
};
export const SIZE_QUESTION = {
  header: 'Size',
  question: 'How big should it be?',
  options: [
    { label: 'Small', description: 'A puppy' },
    { label: 'Large', description: 'Grown up' },
  ],
};
