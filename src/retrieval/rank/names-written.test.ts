import { describe, expect, it } from 'vitest';
import { nameRunsWritten, namesWritten } from './names-written.js';

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

describe('nameRunsWritten', () => {
  it('keeps a name with dots or digits whole, and a number with the word it numbers', () => {
    // "g5.2xlarge" was read as "2xlarge" and "week 10" as "10": the follow-ups "and the
    // g5.4xlarge?" and "What about week 11?" read "a g5.the g5.4xlarge" and "week week 11".
    expect(nameRunsWritten('How much does a g5.2xlarge cost per hour?')).toEqual(['g5.2xlarge']);
    expect(nameRunsWritten('What is covered in week 10?')).toEqual(['week 10']);
    expect(nameRunsWritten('Does ros2 run on the A10G?')).toEqual(['ros2', 'A10G']);
    expect(nameRunsWritten('Is Isaac Sim 4.2 out yet?')).toEqual(['Isaac Sim 4.2']);
    expect(nameRunsWritten('How tall is the Unitree H1?')).toEqual(['Unitree H1']);
    // A number after a function word is a number alone.
    expect(nameRunsWritten('What are the 3 laws?')).toEqual(['3']);
  });
});
