import { describe, expect, it } from 'vitest';
import { namesWritten } from './names-written.js';

describe('namesWritten', () => {
  it('reads capitalised words inside a sentence as names, not the first word of one', () => {
    expect([...namesWritten("What's the weather in Oslo?")]).toEqual(['oslo']);
    expect([...namesWritten('Who won? Tell me about Tesla Optimus')]).toEqual(['tesla', 'optimus']);
    expect([...namesWritten('what is the weather in oslo')]).toEqual([]);
    // Initialisms are no names of this kind: the book's own terms are written so.
    expect([...namesWritten('What is URDF and how does ROS use it?')]).toEqual([]);
  });

  it('reads a word with a capital after a small letter as a name, wherever it stands', () => {
    // "LoRA" was no name, so an off-topic question about it was answered from the book's lines
    // on fine-tuning.
    expect([...namesWritten('How do I fine-tune a large language model with LoRA?')]).toEqual([
      'lora',
    ]);
    expect([...namesWritten('PyTorch or TensorFlow?')]).toEqual(['pytorch', 'tensorflow']);
  });
});
