import { describe, expect, it } from 'vitest';
import { questionSubject } from './question-subject.js';

describe('questionSubject', () => {
  it.each([
    ['What is an IMU?', 'definition', 'IMU', 'IMU'],
    ['whats a behaviour tree', 'definition', 'behaviour tree', 'tree'],
    ['What exactly is a joint limit in URDF?', 'definition', 'joint limit', 'limit'],
    ['Define sensor fusion for me', 'definition', 'sensor fusion', 'fusion'],
    ['What does LiDAR stand for?', 'definition', 'LiDAR', 'LiDAR'],
    ['What is the purpose of a launch file?', 'explanation', 'launch file', 'file'],
    ['What is the range of the depth camera?', 'definition', 'range of the depth camera', 'range'],
    ['How does Nav 2 plan a path? I mean how does it work', 'other', undefined, undefined],
    ['How do action servers work?', 'explanation', 'action servers', 'servers'],
    ['Can you explain how a PID controller works?', 'explanation', 'PID controller', 'controller'],
    ['I read chapter 3. What is a tf tree?', 'definition', 'tf tree', 'tree'],
    ['definition of a gait cycle please', 'definition', 'gait cycle', 'cycle'],
    // A part or property of the subject, asked as a list: not a definition of "benefits"; the
    // subject is what follows "of", as a follow-up reads it ("How does it work?").
    [
      'What are the benefits of multi-instance simulation workloads?',
      'other',
      'multi-instance simulation workloads',
      'workloads',
    ],
    ['What are the components of a digital twin?', 'other', 'digital twin', 'twin'],
    ['What are the different types of QoS policies?', 'other', 'QoS policies', 'policies'],
    ['What are some benefits of Isaac Sim?', 'other', 'Isaac Sim', 'Sim'],
    ['What are the pros and cons of Gazebo?', 'other', undefined, undefined],
    ['What is the use of a launch file?', 'definition', 'use of a launch file', 'file'],
    // "What is X for?" asks what X does for its user, as "the purpose of X" does: answered by
    // "Launch files allow you to …", not by any sentence with "is" in it.
    ['What is a launch file for?', 'explanation', 'launch file', 'file'],
    ['what are ROS 2 services used for', 'explanation', 'ROS 2 services', 'services'],
    ["What's a costmap good for?", 'explanation', 'costmap', 'costmap'],
    // "for" before the end starts the subject's context, as before.
    ['What is QoS for sensor data?', 'definition', 'QoS', 'QoS'],
    // A comparison word ends the subject as "vs" does: "How is Dijkstra different from A* when
    // planning a path?" asked about "Dijkstra different" (head "different"), and its answer
    // quoted "Multi-Layer Maps: Combining different map types".
    [
      'How is Dijkstra different from A* when planning a path?',
      'explanation',
      'Dijkstra',
      'Dijkstra',
    ],
    ['How are lidars distinct from radars?', 'other', undefined, undefined],
    ['What is a differential drive?', 'definition', 'differential drive', 'drive'],
    [
      'What is the principle of least privilege?',
      'definition',
      'principle of least privilege',
      'principle',
    ],
  ])('%s', (query, form, phrase, head) => {
    const subject = questionSubject(query);
    expect(subject.form).toBe(form);
    expect(subject.phrase).toBe(phrase);
    expect(subject.head).toBe(head);
  });

  it('keeps a versioned name whole as the head', () => {
    expect(questionSubject('How does ROS 2 work?').head).toBe('ROS 2');
  });

  it('marks a follow-up that names no subject', () => {
    for (const query of ['What does that stand for?', 'and how does it work?', 'So what is it?'])
      expect(questionSubject(query).pronoun).toBe(true);
    expect(questionSubject('What is it like to study robotics?').pronoun).toBeUndefined();
  });

  it('does not read passive or list questions as definitions of a term', () => {
    expect(questionSubject("What's needed for week 4?").form).toBe('other');
    expect(questionSubject('What is the difference between a service and an action?').form).toBe(
      'other',
    );
    expect(questionSubject('Which GPU should I buy?').form).toBe('other');
  });

  it('reads the specs of a thing as a list about that thing', () => {
    // "specs" was the subject: no line of a specifications list names it, and "What are the specs
    // of the Unitree Go2?" answered that the book does not say.
    expect(questionSubject('What are the specs of the Unitree Go2?')).toEqual({
      form: 'other',
      phrase: 'Unitree Go2',
      head: 'Go2',
    });
    expect(questionSubject('What are the specifications of the Jetson Orin?').head).toBe('Orin');
  });

  it('reads a question about the work itself as naming no term', () => {
    expect(questionSubject('Who is this book written for?')).toEqual({ form: 'other' });
    expect(questionSubject('What is the course about?')).toEqual({ form: 'other' });
    // A term asked through the work is still the subject.
    expect(questionSubject('What is the definition of a node in the book?').head).toBe('node');
  });
});
