import type { GeneratedText } from '../spec/passthrough-tap.js';

/**
 * Accumulates generated text for local token counting, bounded in memory: beyond `maxChars` only
 * the character count grows. Pieces are joined once, when the result is read. A checkpoint lets a
 * caller undo what one event added (when it re-reads the event another way).
 */
export class GeneratedTextCollector {
  private readonly parts: string[] = [];
  private collected = 0;
  private chars = 0;
  private toolCalls = 0;
  private savedParts = 0;
  private savedCollected = 0;
  private savedChars = 0;
  private savedToolCalls = 0;

  constructor(private readonly maxChars: number) {}

  /** Adds generated text. */
  append(text: string): void {
    if (text.length === 0) return;
    this.chars += text.length;
    if (this.collected >= this.maxChars) return;
    const room = this.maxChars - this.collected;
    const piece = text.length > room ? text.slice(0, room) : text;
    this.parts.push(piece);
    this.collected += piece.length;
  }

  /** Records a tool call; its name is generated text too. */
  toolCall(name: string): void {
    this.toolCalls++;
    this.append(name);
  }

  /** Remembers the current state for {@link rollback}. */
  checkpoint(): void {
    this.savedParts = this.parts.length;
    this.savedCollected = this.collected;
    this.savedChars = this.chars;
    this.savedToolCalls = this.toolCalls;
  }

  /** Undoes everything added since the last {@link checkpoint}. */
  rollback(): void {
    this.parts.length = this.savedParts;
    this.collected = this.savedCollected;
    this.chars = this.savedChars;
    this.toolCalls = this.savedToolCalls;
  }

  /** What was collected so far. */
  result(): GeneratedText {
    return {
      text: this.parts.length === 1 ? this.parts[0]! : this.parts.join(''),
      chars: this.chars,
      toolCallCount: this.toolCalls,
    };
  }
}
