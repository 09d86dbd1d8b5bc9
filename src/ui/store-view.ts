import { Component } from 'preact'

interface Listenable {
  listen(listener: () => void): () => void
}

/**
 * A component that renders from stores and re-renders when any of them changes. A class, not
 * hooks: the script tag's UI file then carries no hooks runtime.
 */
export abstract class StoreView<P, S = object> extends Component<P, S> {
  private stops: Array<() => void> = []

  /** The stores this view reads. */
  abstract watched(): Listenable[]

  override componentDidMount() {
    this.stops = this.watched().map((store) => store.listen(() => this.forceUpdate()))
    // A change between the first render and the subscription is not missed.
    this.forceUpdate()
  }

  override componentWillUnmount() {
    for (const stop of this.stops.splice(0)) stop()
  }
}
