import { Component, type ReactNode } from 'react';
import { Button, Result } from 'antd';
import i18n from '../../i18n';

interface State {
  error: Error | null;
}

/** A page that throws (or whose chunk fails to load) shows this instead of a blank screen. */
export default class ErrorBoundary extends Component<{ children: ReactNode }, State> {
  override state: State = { error: null };

  static getDerivedStateFromError(error: Error): State {
    return { error };
  }

  override render() {
    if (!this.state.error) return this.props.children;
    return (
      <Result
        status="error"
        title={i18n.t('common.loadFailed')}
        subTitle={this.state.error.message}
        extra={<Button onClick={() => window.location.reload()}>{i18n.t('common.retry')}</Button>}
      />
    );
  }
}
