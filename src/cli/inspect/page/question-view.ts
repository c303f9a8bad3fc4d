/** One question as the dialog shows it: what it says, its buttons, and what Enter does. */
export interface QuestionView {
  title: string;
  body: HTMLElement[];
  actions: HTMLElement[];
  /** The form's submit (Enter, or a submit button): answers, or shows why it cannot yet. */
  submit(): void;
}
